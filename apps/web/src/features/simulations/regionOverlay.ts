import {
  CylinderGeometry,
  DoubleSide,
  Group,
  Mesh,
  MeshBasicMaterial,
  Quaternion,
  RingGeometry,
  Vector3,
  type Object3D,
} from 'three';
import type { SimulationSetup } from '@insilico/contracts';

/** The flow kinds' planes of a set-up (mm, patient frame). */
export type RegionPlanes = NonNullable<SimulationSetup['planes']>;

const inletColour = 0x66bb6a;
const outletColour = 0xef5350;
const regionColour = 0xffca28;
/** three.js discs and cylinders lie along +Y. */
const up = new Vector3(0, 1, 0);

function disc(plane: RegionPlanes['inlet'], colour: number, name: string): Object3D {
  const group = new Group();
  group.name = name;
  const fill = new Mesh(
    new RingGeometry(0, plane.radius, 48).rotateX(-Math.PI / 2),
    new MeshBasicMaterial({ color: colour, transparent: true, opacity: 0.35, side: DoubleSide, depthWrite: false }),
  );
  const rim = new Mesh(
    new RingGeometry(plane.radius * 0.94, plane.radius, 48).rotateX(-Math.PI / 2),
    new MeshBasicMaterial({ color: colour, side: DoubleSide }),
  );
  group.add(fill, rim);
  group.position.set(...plane.centre);
  group.quaternion.copy(new Quaternion().setFromUnitVectors(up, new Vector3(...plane.normal).normalize()));
  return group;
}

/**
 * The simulated region of a flow set-up as the room's scene draws it (patient frame, mm): the inlet plane (green)
 * across the LVOT, the outlet plane (red) in the ascending aorta, and the region between them as a faint wireframe
 * cylinder: the part of the aortic root the simulation models, clipped around the device.
 */
export function regionOverlay(planes: RegionPlanes): Group {
  const group = new Group();
  group.name = 'simulated-region';
  group.add(disc(planes.inlet, inletColour, 'inlet'), disc(planes.outlet, outletColour, 'outlet'));
  const from = new Vector3(...planes.inlet.centre);
  const to = new Vector3(...planes.outlet.centre);
  const length = from.distanceTo(to);
  if (length > 0) {
    const region = new Mesh(
      new CylinderGeometry(planes.outlet.radius, planes.inlet.radius, length, 32, 6, true),
      new MeshBasicMaterial({ color: regionColour, wireframe: true, transparent: true, opacity: 0.25 }),
    );
    region.name = 'region';
    region.position.copy(from.clone().add(to).multiplyScalar(0.5));
    region.quaternion.copy(new Quaternion().setFromUnitVectors(up, to.clone().sub(from).normalize()));
    group.add(region);
  }
  return group;
}

/** Frees the overlay's geometries and materials. */
export function disposeOverlay(overlay: Object3D): void {
  overlay.traverse((object) => {
    if (object instanceof Mesh) {
      object.geometry.dispose();
      (object.material as MeshBasicMaterial).dispose();
    }
  });
}
