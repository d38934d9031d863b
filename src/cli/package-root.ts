/** The installed package's folder and version (found in the eval layer, which reads the bundled examples too). */
export { packageInfo, type PackageInfo } from '../eval/package-root.js';
