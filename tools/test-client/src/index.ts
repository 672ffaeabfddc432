export { signInAt, type SignedInAgent } from './sign-in';
export { ensureRealmUser, keycloakAdminToken, KeycloakAdminRefused, type RealmPerson } from './keycloak-admin';
