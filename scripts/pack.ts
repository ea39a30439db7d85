// `npm test`'s pack step: `npm pack` of the build, once, into the folder named on the command
// line, for every suite of the run that installs or reads the package as a merchant gets it
// (test/shared/packed.ts's packProject finds it through PAYMENT_WIDGET_PACKED).
import { packShared } from '../test/shared/packed.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node --import tsx scripts/pack.ts DIR');
  process.exit(2);
}
const { tarball, files, packedBytes } = packShared(dir);
console.log(`packed ${tarball}: ${files.length} files, ${packedBytes} bytes`);
