import {
  Box3,
  Group,
  Mesh,
  MeshStandardMaterial,
  Quaternion,
  Raycaster,
  Vector2,
  Vector3,
  type BufferGeometry,
  type Object3D,
} from 'three';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import type { PlacementTransform } from '@insilico/contracts';
import { AnatomyScene } from '../cohorts';
import { checkMaintenanceAnswer } from '../../lib/maintenance';

export type GizmoMode = 'translate' | 'rotate' | 'scale';

/** A landmark as the cohort API gives it (mm, patient frame). */
export interface SceneLandmark {
  name: string;
  position: readonly [number, number, number];
  normal?: readonly [number, number, number] | undefined;
}

export interface RoomSceneEvents {
  /** A device was moved, turned or scaled with the gizmo (its new transform). */
  onTransform: (key: string, transform: PlacementTransform) => void;
  /** A device was picked in the view (null: clicked on nothing). */
  onSelect: (key: string | null) => void;
}

const deviceColour = 0x90caf9;
const selectedColour = 0x42a5f5;
/** The device's own axis that "snap to landmark" aligns with the landmark's plane normal: the model's +Z. */
const deviceAxis = new Vector3(0, 0, 1);

/**
 * The room's 3D scene: the patient's organs (AnatomyScene) with device versions placed in them. Devices live in a
 * group in the patient frame (LPS, mm) — the units of the placements the server keeps — and are moved, turned and
 * scaled with TransformControls gizmos; a click picks one. Renders on demand and keeps its drawing buffer, so the
 * canvas can be saved as a PNG screenshot.
 */
export class RoomScene extends AnatomyScene {
  private readonly patientFrame = new Group();
  private readonly devices = new Map<string, Group>();
  private readonly gizmo: TransformControls;
  private readonly stlLoader = new STLLoader();
  private readonly models = new Map<string, Promise<BufferGeometry>>();
  private selected: string | null = null;
  private overlay: Object3D | null = null;
  private pointerDown: { x: number; y: number } | null = null;

  constructor(
    container: HTMLElement,
    private readonly events: RoomSceneEvents,
  ) {
    super(container);
    // Patient frame LPS (z superior, mm) to three.js (y up, metres), as the anatomy's own group.
    this.patientFrame.rotation.x = -Math.PI / 2;
    this.patientFrame.scale.setScalar(0.001);
    this.scene.add(this.patientFrame);
    this.gizmo = new TransformControls(this.camera, this.renderer.domElement);
    this.gizmo.setSize(0.8);
    this.gizmo.addEventListener('change', () => this.render());
    this.gizmo.addEventListener('dragging-changed', (event) => {
      this.controls.enabled = !event.value;
    });
    this.gizmo.addEventListener('objectChange', () => {
      if (this.selected) this.events.onTransform(this.selected, this.transformOf(this.selected));
    });
    this.scene.add(this.gizmo.getHelper());
    const canvas = this.renderer.domElement;
    canvas.addEventListener('pointerdown', this.onPointerDown);
    canvas.addEventListener('pointerup', this.onPointerUp);
  }

  /** Loads a model file once (binary or ASCII STL, mm). */
  private model(url: string): Promise<BufferGeometry> {
    let loading = this.models.get(url);
    if (!loading) {
      loading = fetch(url, { credentials: 'same-origin' })
        .then(async (response) => {
          await checkMaintenanceAnswer(response);
          if (!response.ok) throw new Error(`The device model could not be loaded (status ${response.status}).`);
          return response.arrayBuffer();
        })
        .then((bytes) => {
          const geometry = this.stlLoader.parse(bytes);
          geometry.computeVertexNormals();
          return geometry;
        });
      loading.catch(() => this.models.delete(url));
      this.models.set(url, loading);
    }
    return loading;
  }

  /** Adds (or replaces) a placed device: its model files as one object at the transform. */
  async place(key: string, modelUrls: readonly string[], transform: PlacementTransform): Promise<void> {
    const geometries = await Promise.all(modelUrls.map((url) => this.model(url)));
    this.remove(key);
    const device = new Group();
    device.name = key;
    // The placement's position is the centre of the model's bounding box (all its files together), so that a device
    // snapped to a landmark sits centred on it whatever origin its STL files were drawn around.
    const bounds = new Box3();
    for (const geometry of geometries) {
      geometry.computeBoundingBox();
      if (geometry.boundingBox) bounds.union(geometry.boundingBox);
    }
    const centre = bounds.isEmpty() ? new Vector3() : bounds.getCenter(new Vector3());
    for (const geometry of geometries) {
      const material = new MeshStandardMaterial({ color: deviceColour, roughness: 0.35, metalness: 0.5 });
      const mesh = new Mesh(geometry, material);
      mesh.position.copy(centre).negate();
      device.add(mesh);
    }
    this.apply(device, transform);
    this.patientFrame.add(device);
    this.devices.set(key, device);
    if (this.selected === key) this.select(key);
    this.render();
  }

  /** Sets a device's transform (undo, snap). */
  setTransform(key: string, transform: PlacementTransform): void {
    const device = this.devices.get(key);
    if (!device) return;
    this.apply(device, transform);
    this.render();
  }

  remove(key: string): void {
    const device = this.devices.get(key);
    if (!device) return;
    if (this.gizmo.object === device) this.gizmo.detach();
    this.patientFrame.remove(device);
    device.traverse((object) => {
      if (object instanceof Mesh) (object.material as MeshStandardMaterial).dispose();
    });
    this.devices.delete(key);
    this.render();
  }

  /** Highlights a device and puts the gizmo on it (null: none). */
  select(key: string | null): void {
    this.selected = key && this.devices.has(key) ? key : null;
    for (const [name, device] of this.devices)
      device.traverse((object) => {
        if (object instanceof Mesh)
          (object.material as MeshStandardMaterial).color.setHex(
            name === this.selected ? selectedColour : deviceColour,
          );
      });
    const device = this.selected ? this.devices.get(this.selected) : undefined;
    if (device) this.gizmo.attach(device);
    else this.gizmo.detach();
    this.render();
  }

  setMode(mode: GizmoMode): void {
    this.gizmo.setMode(mode);
    // Rotation and scale about the device's own axes; translation in the patient's axes.
    this.gizmo.setSpace(mode === 'translate' ? 'world' : 'local');
    this.render();
  }

  /** Whether the gizmo is being dragged (keyboard shortcuts wait). */
  get dragging(): boolean {
    return this.gizmo.dragging;
  }

  /**
   * Moves the device's centre to the landmark and, for a plane landmark (an annulus), turns the device so that its
   * axis (+Z of the model) lies along the plane's normal. Answers the new transform.
   */
  snap(key: string, landmark: SceneLandmark): PlacementTransform | null {
    const device = this.devices.get(key);
    if (!device) return null;
    const current = this.transformOf(key);
    const quaternion = landmark.normal
      ? new Quaternion().setFromUnitVectors(deviceAxis, new Vector3(...landmark.normal).normalize())
      : new Quaternion(...current.quaternion);
    const transform: PlacementTransform = {
      position: [...landmark.position],
      quaternion: [quaternion.x, quaternion.y, quaternion.z, quaternion.w],
      scale: current.scale,
    };
    this.setTransform(key, transform);
    return transform;
  }

  /**
   * Shows an object drawn in the patient frame (mm) over the anatomy, replacing the previous one (null: none): the
   * simulated region of a set-up. The caller owns it (and disposes of it).
   */
  setOverlay(overlay: Object3D | null): void {
    if (this.overlay) this.patientFrame.remove(this.overlay);
    this.overlay = overlay;
    if (overlay) this.patientFrame.add(overlay);
    this.render();
  }

  /** The PNG of what the view shows now. */
  screenshot(): Promise<Blob> {
    const helper = this.gizmo.getHelper();
    const wasVisible = helper.visible;
    // The gizmo is a tool, not part of the picture.
    helper.visible = false;
    this.render();
    return new Promise((resolve, reject) => {
      this.renderer.domElement.toBlob((blob) => {
        helper.visible = wasVisible;
        this.render();
        if (blob) resolve(blob);
        else reject(new Error('The view could not be captured.'));
      }, 'image/png');
    });
  }

  override dispose(): void {
    const canvas = this.renderer.domElement;
    canvas.removeEventListener('pointerdown', this.onPointerDown);
    canvas.removeEventListener('pointerup', this.onPointerUp);
    this.gizmo.detach();
    this.gizmo.dispose();
    for (const key of [...this.devices.keys()]) this.remove(key);
    for (const loading of this.models.values()) void loading.then((geometry) => geometry.dispose()).catch(() => {});
    super.dispose();
  }

  private transformOf(key: string): PlacementTransform {
    const device = this.devices.get(key)!;
    const q = device.quaternion.clone().normalize();
    return {
      position: [device.position.x, device.position.y, device.position.z],
      quaternion: [q.x, q.y, q.z, q.w],
      scale: [device.scale.x, device.scale.y, device.scale.z],
    };
  }

  private apply(device: Object3D, transform: PlacementTransform): void {
    device.position.set(...transform.position);
    device.quaternion.set(...transform.quaternion).normalize();
    device.scale.set(...transform.scale);
  }

  /** A click (not a drag of the view) picks the device under the pointer. */
  private readonly onPointerDown = (event: PointerEvent) => {
    this.pointerDown = { x: event.clientX, y: event.clientY };
  };

  private readonly onPointerUp = (event: PointerEvent) => {
    const down = this.pointerDown;
    this.pointerDown = null;
    if (!down || Math.hypot(event.clientX - down.x, event.clientY - down.y) > 4 || this.gizmo.dragging) return;
    const rect = this.renderer.domElement.getBoundingClientRect();
    const pointer = new Vector2(
      ((event.clientX - rect.left) / rect.width) * 2 - 1,
      -((event.clientY - rect.top) / rect.height) * 2 + 1,
    );
    const raycaster = new Raycaster();
    raycaster.setFromCamera(pointer, this.camera);
    const hit = raycaster.intersectObjects([...this.devices.values()], true)[0];
    let object: Object3D | null = hit?.object ?? null;
    while (object && !this.devices.has(object.name)) object = object.parent;
    this.events.onSelect(object?.name ?? null);
  };
}
