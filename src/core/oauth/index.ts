// Public face of OAuth 1.0a signing: signRequest for clients, verifyRequest for the local gateway.
export type { SigningCredentials, SignatureDetails } from './sign';
export { signRequest, checkSigningCredentials, loadPrivateKey, percentEncode } from './sign';
export { parseAuthorizationHeader, verifyRequest } from './verify';
