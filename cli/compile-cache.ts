// Node's on-disk cache of compiled code (module.enableCompileCache, Node >= 22.1): a fresh `evap` process then skips
// compiling the modules a command loads (they are loaded after this, by import()). On Node 20 and 22.0 the function
// does not exist and this does nothing. NODE_DISABLE_COMPILE_CACHE=1 turns it off; NODE_COMPILE_CACHE picks the folder.
import module from 'node:module';

const enable = (module as { enableCompileCache?: (directory?: string) => unknown }).enableCompileCache;
try {
  enable?.();
} catch {
  // a folder that cannot be written only costs the speed-up
}
