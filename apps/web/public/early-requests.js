// Asks for the session, the workspaces and the selected workspace while the app's code still loads: they are
// what every page needs first, and the app's own requests would start only once its code has run (a few hundred ms
// on a cold load). src/lib/earlyRequests.ts hands each answer to the first apiFetch of the same path
// (docs/decisions/projects-overview-speed.md).
/* global window */
(function () {
  var paths = ['/api/auth/me', '/api/devices', '/api/me/selected-device'];
  var early = {};
  for (var i = 0; i < paths.length; i += 1) {
    early[paths[i]] = fetch(paths[i], { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    // A failed early request is not reported here; the app asks again itself.
    early[paths[i]].catch(function () {});
  }
  window.__insilicoEarlyRequests = early;
})();
