import {
  AmbientLight,
  Box3,
  Color,
  DirectionalLight,
  DoubleSide,
  Group,
  Mesh,
  MeshBasicMaterial,
  MeshStandardMaterial,
  PerspectiveCamera,
  Raycaster,
  Scene,
  SphereGeometry,
  Vector2,
  Vector3,
  WebGLRenderer,
  type Object3D,
} from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { checkMaintenanceAnswer } from '../../lib/maintenance';

/** Colour and opacity per organ: blood pools red/blue, myocardium muscle, annuli yellow, thorax faint. */
const ORGAN_LOOK: Readonly<Record<string, { color: number; opacity: number }>> = {
  lv_blood_pool: { color: 0xc62828, opacity: 1 },
  lv_myocardium: { color: 0x8d4a43, opacity: 0.55 },
  rv_blood_pool: { color: 0x5c6bc0, opacity: 1 },
  la_blood_pool: { color: 0xe57373, opacity: 1 },
  ra_blood_pool: { color: 0x9fa8da, opacity: 1 },
  aortic_root: { color: 0xd84315, opacity: 1 },
  aortic_annulus: { color: 0xfdd835, opacity: 1 },
  mitral_annulus: { color: 0xfdd835, opacity: 1 },
  tricuspid_annulus: { color: 0xfdd835, opacity: 1 },
  pulmonary_annulus: { color: 0xfdd835, opacity: 1 },
  rib_cage: { color: 0xefebe9, opacity: 0.35 },
  left_lung: { color: 0xf8bbd0, opacity: 0.18 },
  right_lung: { color: 0xf8bbd0, opacity: 0.18 },
};

/** A point of an organ's surface picked in the view: the organ and the point (patient frame, mm). */
export interface SurfacePick {
  organ: string;
  position: [number, number, number];
}

/** Radius (mm) of the markers of picked points. */
const MARKER_RADIUS_MM = 1.2;

/**
 * The three.js scene of the 3D preview: one patient's organs per phase (GLB, metres, patient frame LPS), orbit
 * controls, rendering on demand. Phases are loaded once and kept, so switching and cine playback only swap groups.
 */
export class AnatomyScene {
  // Protected: the room scene (features/rooms) builds on this one with device placements.
  protected readonly renderer: WebGLRenderer;
  protected readonly scene = new Scene();
  protected readonly camera = new PerspectiveCamera(35, 1, 0.005, 10);
  protected readonly controls: OrbitControls;
  private readonly loader = new GLTFLoader();
  private readonly phases = new Map<string, Promise<Group>>();
  private readonly resizeObserver: ResizeObserver;
  protected current: Group | null = null;
  private hidden = new Set<string>();
  private framed = false;
  /** Markers of picked points, in the patient frame (mm): the GLB's turn, scaled from mm to metres. */
  private readonly pickMarkers = new Group();
  private surfaceListener: ((pick: SurfacePick | null) => void) | null = null;
  private surfaceDown: { x: number; y: number } | null = null;

  constructor(private readonly container: HTMLElement) {
    this.renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
    this.renderer.setClearColor(new Color(0x11161c));
    container.appendChild(this.renderer.domElement);
    this.scene.add(new AmbientLight(0xffffff, 0.7));
    const key = new DirectionalLight(0xffffff, 1.6);
    key.position.set(1, 1, 2);
    this.scene.add(key);
    const rim = new DirectionalLight(0xffffff, 0.6);
    rim.position.set(-1, -0.5, -1);
    this.scene.add(rim);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener('change', () => this.render());
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.pickMarkers.rotation.x = -Math.PI / 2;
    this.pickMarkers.scale.setScalar(0.001);
    this.scene.add(this.pickMarkers);
    this.resize();
  }

  /**
   * Surface picking (issue 23, measurement points): a click (not a drag of the view) on a visible organ answers the
   * organ and the point hit (patient frame, mm); a click on nothing answers null. `null` ends picking.
   */
  setPickListener(listener: ((pick: SurfacePick | null) => void) | null): void {
    const canvas = this.renderer.domElement;
    if (listener && !this.surfaceListener) {
      canvas.addEventListener('pointerdown', this.onSurfaceDown);
      canvas.addEventListener('pointerup', this.onSurfaceUp);
    } else if (!listener && this.surfaceListener) {
      canvas.removeEventListener('pointerdown', this.onSurfaceDown);
      canvas.removeEventListener('pointerup', this.onSurfaceUp);
    }
    this.surfaceListener = listener;
  }

  /** The organ's surface under a point of the view (client coordinates), or null. */
  surfaceAt(clientX: number, clientY: number): SurfacePick | null {
    if (!this.current) return null;
    const rect = this.renderer.domElement.getBoundingClientRect();
    const pointer = new Vector2(
      ((clientX - rect.left) / rect.width) * 2 - 1,
      -((clientY - rect.top) / rect.height) * 2 + 1,
    );
    const raycaster = new Raycaster();
    raycaster.setFromCamera(pointer, this.camera);
    const organs: Object3D[] = [];
    this.current.traverse((object) => {
      if (object instanceof Mesh && object.visible) organs.push(object);
    });
    const hit = raycaster.intersectObjects(organs, false)[0];
    if (!hit) return null;
    // The GLB's frame is the patient frame in metres under the group's turn.
    const local = this.current.worldToLocal(hit.point.clone()).multiplyScalar(1000);
    return { organ: hit.object.name, position: [local.x, local.y, local.z] };
  }

  /** Shows a marker at each point (patient frame, mm), drawn over the organs. */
  setMarkers(points: readonly (readonly [number, number, number])[]): void {
    for (const marker of [...this.pickMarkers.children]) {
      this.pickMarkers.remove(marker);
      if (marker instanceof Mesh) {
        marker.geometry.dispose();
        (marker.material as MeshBasicMaterial).dispose();
      }
    }
    for (const point of points) {
      const marker = new Mesh(
        new SphereGeometry(MARKER_RADIUS_MM, 16, 12),
        new MeshBasicMaterial({ color: 0x00e5ff, depthTest: false }),
      );
      marker.renderOrder = 1;
      marker.position.set(...point);
      this.pickMarkers.add(marker);
    }
    this.render();
  }

  /** Loads a phase's GLB (once; later calls reuse it). */
  load(phase: string, url: string): Promise<Group> {
    let loading = this.phases.get(phase);
    if (!loading) {
      loading = fetch(url, { credentials: 'same-origin' })
        .then(async (response) => {
          await checkMaintenanceAnswer(response);
          if (!response.ok)
            throw new Error(`The anatomy of this phase could not be loaded (status ${response.status}).`);
          return response.arrayBuffer();
        })
        .then((bytes) => this.loader.parseAsync(bytes, ''))
        .then((gltf) => {
          const group = new Group();
          // Patient frame LPS (z superior) to three.js (y up), seen from the front.
          group.rotation.x = -Math.PI / 2;
          group.add(gltf.scene);
          gltf.scene.traverse((object) => styleOrgan(object));
          return group;
        });
      loading.catch(() => this.phases.delete(phase));
      this.phases.set(phase, loading);
    }
    return loading;
  }

  /** Shows a loaded phase in place of the current one. */
  async show(phase: string, url: string): Promise<void> {
    const group = await this.load(phase, url);
    if (this.current !== group) {
      if (this.current) this.scene.remove(this.current);
      this.scene.add(group);
      this.current = group;
    }
    this.applyVisibility();
    if (!this.framed) this.frame(group);
    this.render();
  }

  /** Hides the organs not in `visible`. */
  setVisibleOrgans(visible: ReadonlySet<string>, all: readonly string[]): void {
    this.hidden = new Set(all.filter((organ) => !visible.has(organ)));
    this.applyVisibility();
    this.render();
  }

  dispose(): void {
    this.setPickListener(null);
    this.setMarkers([]);
    this.resizeObserver.disconnect();
    this.controls.dispose();
    for (const loading of this.phases.values())
      void loading
        .then((group) =>
          group.traverse((object) => {
            if (object instanceof Mesh) {
              object.geometry.dispose();
              (object.material as MeshStandardMaterial).dispose();
            }
          }),
        )
        .catch(() => undefined);
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }

  private readonly onSurfaceDown = (event: PointerEvent) => {
    this.surfaceDown = { x: event.clientX, y: event.clientY };
  };

  private readonly onSurfaceUp = (event: PointerEvent) => {
    const down = this.surfaceDown;
    this.surfaceDown = null;
    if (!down || Math.hypot(event.clientX - down.x, event.clientY - down.y) > 4) return;
    this.surfaceListener?.(this.surfaceAt(event.clientX, event.clientY));
  };

  private applyVisibility(): void {
    this.current?.traverse((object) => {
      if (object instanceof Mesh) object.visible = !this.hidden.has(object.name);
    });
  }

  private frame(group: Group): void {
    group.updateMatrixWorld(true);
    const heart = new Box3();
    group.traverse((object) => {
      if (object instanceof Mesh && object.name.endsWith('blood_pool')) heart.expandByObject(object);
    });
    const box = heart.isEmpty() ? new Box3().setFromObject(group) : heart;
    const centre = box.getCenter(new Vector3());
    const radius = box.getSize(new Vector3()).length() / 2;
    const distance = (radius * 1.6) / Math.tan((this.camera.fov * Math.PI) / 360);
    this.camera.position.set(centre.x, centre.y, centre.z + distance);
    this.camera.near = distance / 100;
    this.camera.far = distance * 20;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(centre);
    this.controls.update();
    this.framed = true;
  }

  private resize(): void {
    const width = Math.max(1, this.container.clientWidth);
    const height = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(width, height, false);
    this.renderer.domElement.style.width = '100%';
    this.renderer.domElement.style.height = '100%';
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  protected render(): void {
    this.renderer.render(this.scene, this.camera);
  }
}

function styleOrgan(object: Object3D): void {
  if (!(object instanceof Mesh)) return;
  const look = ORGAN_LOOK[object.name] ?? { color: 0xbdbdbd, opacity: 1 };
  object.material = new MeshStandardMaterial({
    color: look.color,
    roughness: 0.6,
    metalness: 0.05,
    transparent: look.opacity < 1,
    opacity: look.opacity,
    depthWrite: look.opacity === 1,
    ...(look.opacity < 1 ? { side: DoubleSide } : {}),
  });
}
