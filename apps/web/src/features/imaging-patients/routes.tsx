import type { RouteObject } from 'react-router';

/** `/projects/imaging-patient?project=&dataset=&patient=`: a patient of the project's imaging cohort (issue 19). */
export const imagingPatientRoutes: RouteObject[] = [
  {
    path: 'projects/imaging-patient',
    lazy: async () => ({ Component: (await import('./components/ImagingPatientPage')).ImagingPatientPage }),
    handle: { title: 'Imaging patient' },
  },
];
