import {
  Box3,
  BufferAttribute,
  BufferGeometry,
  Color,
  Group,
  Plane,
  Points,
  PointsMaterial,
  Vector2,
  Vector3,
} from 'three';
import { AnatomyScene } from '../cohorts';
import { heatColor } from './heatmapImage';
import { pickParticle } from './resultPicking';

/** One object's particles at one timestep: xyz triples (mm, patient frame), their ids and the coloured values. */
export interface ObjectFrame {
  positions: Float32Array;
  ids: Int32Array;
  /** One value per particle, or null: the object has no such output (drawn grey). */
  values: Float32Array | null;
}

export type ClipAxis = 'x' | 'y' | 'z';

const noOutputColour = new Color(0x9e9e9e);
const pickedColour = new Color(0xff1744);

/**
 * The results page's 3D playback (issue 16 item 5): each object of a result as a point cloud in the patient frame
 * (mm → the anatomy's metres, z up → y up, as rooms do), coloured by an output on the viridis scale of the colour
 * bar, with object visibility, a clip plane along an axis, particle picking and PNG screenshots. Lazily loaded with
 * three.js; renders on demand and keeps its drawing buffer (AnatomyScene).
 */
export class ResultScene extends AnatomyScene {
  private readonly patientFrame = new Group();
  private readonly clouds = new Map<string, Points<BufferGeometry, PointsMaterial>>();
  private readonly ids = new Map<string, Int32Array>();
  private readonly clipPlane = new Plane(new Vector3(-1, 0, 0), 0);
  private clipping = false;
  private framedBox: Box3 | null = null;
  /** Point diameter, mm (the material's size is in the scene's metres). */
  private pointSize = 1;
  private picked = new Set<string>();
  private pointerDown: { x: number; y: number } | null = null;

  constructor(
    container: HTMLElement,
    private readonly onPick: (object: string, particle: number) => void,
  ) {
    super(container);
    this.patientFrame.rotation.x = -Math.PI / 2;
    this.patientFrame.scale.setScalar(0.001);
    this.scene.add(this.patientFrame);
    this.renderer.localClippingEnabled = true;
    const canvas = this.renderer.domElement;
    canvas.addEventListener('pointerdown', this.onPointerDown);
    canvas.addEventListener('pointerup', this.onPointerUp);
  }

  /** Shows an object's frame coloured by `values` over [min, max] (the colour bar's range). */
  setFrame(object: string, frame: ObjectFrame, range: { min: number; max: number }): void {
    let cloud = this.clouds.get(object);
    if (!cloud) {
      cloud = new Points(new BufferGeometry(), new PointsMaterial({ vertexColors: true, size: this.pointSize / 1000 }));
      cloud.name = object;
      this.clouds.set(object, cloud);
      this.patientFrame.add(cloud);
      this.applyClipping();
    }
    const geometry = cloud.geometry;
    geometry.setAttribute('position', new BufferAttribute(frame.positions, 3));
    geometry.setAttribute('color', new BufferAttribute(this.colours(object, frame, range), 3));
    geometry.computeBoundingSphere();
    geometry.computeBoundingBox();
    this.ids.set(object, frame.ids);
    if (!this.framedBox) this.frameAll();
    this.render();
  }

  setVisible(object: string, visible: boolean): void {
    const cloud = this.clouds.get(object);
    if (!cloud) return;
    cloud.visible = visible;
    this.render();
  }

  /** Particles drawn highlighted (`object:id`), the ones on the line-graph card. */
  setPicked(keys: readonly string[]): void {
    this.picked = new Set(keys);
  }

  /**
   * The clip plane: keeps the particles whose coordinate along `axis` lies below `fraction` of the result's extent
   * (1: nothing clipped), so a person sees inside the vessel.
   */
  setClip(axis: ClipAxis | null, fraction: number): void {
    this.clipping = axis !== null && this.framedBox !== null;
    if (axis && this.framedBox) {
      const k = axis === 'x' ? 0 : axis === 'y' ? 1 : 2;
      const min = this.framedBox.min.getComponent(k);
      const max = this.framedBox.max.getComponent(k);
      // The plane lives in world space: the patient frame's axis turned and scaled as the group is.
      const normal = new Vector3().setComponent(k, -1).transformDirection(this.patientFrame.matrixWorld);
      const point = new Vector3()
        .setComponent(k, min + (max - min) * fraction)
        .applyMatrix4(this.patientFrame.matrixWorld);
      this.clipPlane.setFromNormalAndCoplanarPoint(normal, point);
    }
    this.applyClipping();
    this.render();
  }

  /** The PNG of what the view shows now. */
  screenshot(): Promise<Blob> {
    this.render();
    return new Promise((resolve, reject) => {
      this.renderer.domElement.toBlob((blob) => {
        if (blob) resolve(blob);
        else reject(new Error('The view could not be captured.'));
      }, 'image/png');
    });
  }

  override dispose(): void {
    const canvas = this.renderer.domElement;
    canvas.removeEventListener('pointerdown', this.onPointerDown);
    canvas.removeEventListener('pointerup', this.onPointerUp);
    for (const cloud of this.clouds.values()) {
      cloud.geometry.dispose();
      cloud.material.dispose();
    }
    this.clouds.clear();
    super.dispose();
  }

  private colours(object: string, frame: ObjectFrame, range: { min: number; max: number }): Float32Array {
    const count = frame.ids.length;
    const colours = new Float32Array(count * 3);
    const scale = 1 / (range.max - range.min || 1);
    const colour = new Color();
    // The picked ids of this object as numbers: no key string per particle (100k of them on the first frame).
    const pickedIds = new Set<number>();
    for (const key of this.picked) {
      const at = key.lastIndexOf(':');
      if (key.slice(0, at) === object) pickedIds.add(Number(key.slice(at + 1)));
    }
    for (let i = 0; i < count; i++) {
      if (pickedIds.size > 0 && pickedIds.has(frame.ids[i]!)) colour.copy(pickedColour);
      else if (!frame.values || !Number.isFinite(frame.values[i]!)) colour.copy(noOutputColour);
      else {
        const [r, g, b] = heatColor((frame.values[i]! - range.min) * scale);
        colour.setRGB(r / 255, g / 255, b / 255);
      }
      colours[3 * i] = colour.r;
      colours[3 * i + 1] = colour.g;
      colours[3 * i + 2] = colour.b;
    }
    return colours;
  }

  private applyClipping(): void {
    for (const cloud of this.clouds.values()) {
      cloud.material.clippingPlanes = this.clipping ? [this.clipPlane] : [];
      cloud.material.needsUpdate = true;
    }
  }

  /** Frames the camera on every cloud and sizes the points from the particle spacing (extent / ∛count). */
  private frameAll(): void {
    const box = new Box3();
    let count = 0;
    for (const cloud of this.clouds.values()) {
      const b = cloud.geometry.boundingBox;
      if (b && !b.isEmpty()) box.union(b);
      count += cloud.geometry.getAttribute('position').count;
    }
    if (box.isEmpty()) return;
    this.framedBox = box.clone();
    this.patientFrame.updateMatrixWorld(true);
    const world = box.clone().applyMatrix4(this.patientFrame.matrixWorld);
    const centre = world.getCenter(new Vector3());
    const radius = Math.max(1e-4, world.getSize(new Vector3()).length() / 2);
    const distance = (radius * 1.6) / Math.tan((this.camera.fov * Math.PI) / 360);
    this.camera.position.set(centre.x, centre.y, centre.z + distance);
    this.camera.near = distance / 100;
    this.camera.far = distance * 20;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(centre);
    this.controls.update();
    const size = box.getSize(new Vector3());
    const spacing = Math.cbrt((size.x * size.y * size.z) / Math.max(1, count)) || size.length() / 20;
    this.pointSize = Math.max(0.2, spacing * 0.8);
    for (const cloud of this.clouds.values()) cloud.material.size = this.pointSize / 1000;
  }

  private readonly onPointerDown = (event: PointerEvent) => {
    this.pointerDown = { x: event.clientX, y: event.clientY };
  };

  /** A click (not a drag of the view) picks the particle under the pointer. */
  private readonly onPointerUp = (event: PointerEvent) => {
    const down = this.pointerDown;
    this.pointerDown = null;
    if (!down || Math.hypot(event.clientX - down.x, event.clientY - down.y) > 4) return;
    const rect = this.renderer.domElement.getBoundingClientRect();
    const pointer = new Vector2(
      ((event.clientX - rect.left) / rect.width) * 2 - 1,
      -((event.clientY - rect.top) / rect.height) * 2 + 1,
    );
    // The threshold is in the points' own (patient, mm) units: a point's radius.
    const hit = pickParticle([...this.clouds.values()], this.ids, this.camera, pointer, this.pointSize / 2);
    if (hit) this.onPick(hit.object, hit.particle);
  };
}
