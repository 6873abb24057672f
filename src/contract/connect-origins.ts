/**
 * How the service tells its console which other origins it may call (`CORS_ORIGINS`): a
 * meta tag in the served index.html, its content the origins separated by spaces.
 */
export const CONNECT_ORIGINS_META = 'provisioning-connect-origins';
