import {
  AmbientLight,
  BoxGeometry,
  Color,
  DirectionalLight,
  InstancedMesh,
  Matrix4,
  MeshLambertMaterial,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { bandEnergy, logBands, type Size, type VisualFrame } from '../visualFrame';
import type { GLRenderer } from './glRenderer';

const COLUMNS = 32;
/** Rows of history: the newest spectrum in front, older ones moving back (a 3D spectrogram). */
const ROWS = 12;
const SPACING = 1;

/**
 * 3D bars (three.js): COLUMNS spectrum bands × ROWS frames of history as one instanced mesh, the camera
 * circling as fast as the sound is loud, the bars and the background flashing on the beat. One draw call.
 */
export class Bars3dRenderer implements GLRenderer {
  readonly canvas: HTMLCanvasElement;
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(45, 16 / 9, 0.1, 100);
  private readonly geometry = new BoxGeometry(0.8 * SPACING, 1, 0.8 * SPACING).translate(0, 0.5, 0);
  private readonly material = new MeshLambertMaterial();
  private readonly bars = new InstancedMesh(this.geometry, this.material, COLUMNS * ROWS);
  private readonly history = new Float32Array(COLUMNS * ROWS);
  private readonly bands = new Float32Array(COLUMNS);
  private readonly matrix = new Matrix4();
  private readonly position = new Vector3();
  private readonly scale = new Vector3();
  private readonly rotation = new Quaternion();
  private readonly colour = new Color();
  private readonly clear = new Color();
  private readonly hues = Float32Array.from({ length: COLUMNS }, (_, column) => ((270 + (column / (COLUMNS - 1)) * 150) % 360) / 360);
  private orbit = 0;

  constructor() {
    this.canvas = document.createElement('canvas');
    this.renderer = new WebGLRenderer({ canvas: this.canvas, antialias: false, alpha: false, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(1);
    this.scene.add(new AmbientLight(0xffffff, 1.2));
    const light = new DirectionalLight(0xffffff, 2);
    light.position.set(4, 10, 8);
    this.scene.add(light);
    this.bars.frustumCulled = false;
    this.scene.add(this.bars);
  }

  resize({ width, height }: Size): void {
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / Math.max(1, height);
    this.camera.updateProjectionMatrix();
  }

  draw(frame: VisualFrame): void {
    // Older rows move back one place; the newest spectrum enters in front.
    this.history.copyWithin(COLUMNS, 0, COLUMNS * (ROWS - 1));
    logBands(frame.spectrum, COLUMNS, this.bands);
    this.history.set(this.bands, 0);
    for (let row = 0; row < ROWS; row++) {
      const age = row / ROWS;
      for (let column = 0; column < COLUMNS; column++) {
        const index = row * COLUMNS + column;
        const level = this.history[index]!;
        this.position.set((column - (COLUMNS - 1) / 2) * SPACING, 0, -row * SPACING * 1.2);
        this.scale.set(1, 0.05 + level * 8, 1);
        this.matrix.compose(this.position, this.rotation, this.scale);
        this.bars.setMatrixAt(index, this.matrix);
        this.colour.setHSL(this.hues[column]!, 0.85, (0.35 + level * 0.3 + frame.pulse * 0.2) * (1 - age * 0.6));
        this.bars.setColorAt(index, this.colour);
      }
    }
    this.bars.instanceMatrix.needsUpdate = true;
    if (this.bars.instanceColor) this.bars.instanceColor.needsUpdate = true;
    this.orbit += bandEnergy(frame.spectrum, 0, 0.3) * 0.01;
    this.camera.position.set(Math.sin(this.orbit) * 20, 10 + frame.pulse * 0.8, Math.cos(this.orbit) * 20 - 6);
    this.camera.lookAt(0, 1.5, -6);
    this.clear.setRGB(0.16 * frame.pulse, 0.03 * frame.pulse, 0.25 * frame.pulse);
    this.renderer.setClearColor(this.clear, 1);
    this.renderer.render(this.scene, this.camera);
  }

  dispose(): void {
    this.bars.dispose();
    this.geometry.dispose();
    this.material.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
  }
}
