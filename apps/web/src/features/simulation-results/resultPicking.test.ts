import { BufferAttribute, BufferGeometry, Group, PerspectiveCamera, Points, Vector2, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { pickParticle } from './resultPicking';

/** Point clouds as the results scene holds them: in a patient frame group (mm → m, z up → y up), named by object. */
function sceneOf(objects: Record<string, { positions: number[]; ids: number[] }>) {
  const frame = new Group();
  frame.rotation.x = -Math.PI / 2;
  frame.scale.setScalar(0.001);
  const clouds: Points[] = [];
  const ids = new Map<string, Int32Array>();
  for (const [name, object] of Object.entries(objects)) {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(Float32Array.from(object.positions), 3));
    const cloud = new Points(geometry);
    cloud.name = name;
    frame.add(cloud);
    clouds.push(cloud);
    ids.set(name, Int32Array.from(object.ids));
  }
  frame.updateMatrixWorld(true);
  const camera = new PerspectiveCamera(45, 1, 0.001, 10);
  camera.position.set(0, 0.2, 0);
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld(true);
  // Where a patient-frame point (mm) shows on the screen, as the pointer's normalised device coordinates.
  const screenOf = (x: number, y: number, z: number) => {
    const p = new Vector3(x, y, z).applyMatrix4(frame.matrixWorld).project(camera);
    return new Vector2(p.x, p.y);
  };
  return { clouds, ids, camera, screenOf };
}

describe('picking a particle in 3D', () => {
  const { clouds, ids, camera, screenOf } = sceneOf({
    blood: { positions: [0, 0, 0, 10, 0, 0, -10, 5, 0], ids: [40, 41, 42] },
    wall: { positions: [0, 20, 0, 0, -20, 30], ids: [7, 8] },
  });

  it('answers the object and the id of the particle under the pointer (ids, not row numbers)', () => {
    expect(pickParticle(clouds, ids, camera, screenOf(10, 0, 0), 0.5)).toEqual({ object: 'blood', particle: 41 });
    expect(pickParticle(clouds, ids, camera, screenOf(-10, 5, 0), 0.5)).toEqual({ object: 'blood', particle: 42 });
    expect(pickParticle(clouds, ids, camera, screenOf(0, 20, 0), 0.5)).toEqual({ object: 'wall', particle: 7 });
  });

  it('picks the nearest along the ray when two points line up (the one closer to the camera)', () => {
    // The camera sits 200 mm above the patient's origin along z: (0, −10, 100) lies halfway on its ray to (0, −20, 0).
    const lined = sceneOf({ low: { positions: [0, -20, 0], ids: [1] }, high: { positions: [0, -10, 100], ids: [2] } });
    expect(pickParticle(lined.clouds, lined.ids, lined.camera, lined.screenOf(0, -20, 0), 0.5)).toEqual({
      object: 'high',
      particle: 2,
    });
  });

  it('picks nothing between particles, and never a hidden object', () => {
    expect(pickParticle(clouds, ids, camera, screenOf(5, 2.5, 0), 0.5)).toBeNull();
    clouds[1]!.visible = false;
    expect(pickParticle(clouds, ids, camera, screenOf(0, 20, 0), 0.5)).toBeNull();
    clouds[1]!.visible = true;
  });
});
