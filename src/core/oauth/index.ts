// Public face of OAuth 1.0a signing: signRequest for clients, verifyRequest for the local gateway.
export type { SigningCredentials, SignInput, SignatureDetails } from './sign';
export {
  signRequest,
  checkSigningCredentials,
  loadPrivateKey,
  SigningKeyError,
  percentEncode,
  baseStringUri,
  queryParameters,
  authorizationHeader,
  contentHash,
} from './sign';
export { parseAuthorizationHeader, verifyRequest, buildBaseString } from './verify';
