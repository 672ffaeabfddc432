export { signInAt, type SignedInAgent } from './sign-in';
