export { RoomSimulations } from './components/RoomSimulations';
export { ProjectSimulations } from './components/ProjectSimulations';
export { regionOverlay, disposeOverlay, type RegionPlanes } from './regionOverlay';
