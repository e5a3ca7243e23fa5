import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';

// @noble/ed25519 v3 ships only the async API ready to use (WebCrypto SHA-512); its synchronous
// sign/verify/getPublicKey need a synchronous SHA-512. We want sync (decide-free signing in the
// request path, `verifyEnvelope(...): boolean` for buyers), so wire @noble/hashes in once.
// Importing this module is the only side effect; every noble user in src/evidence imports it.
if (!ed.hashes.sha512) ed.hashes.sha512 = sha512;

export { ed };
