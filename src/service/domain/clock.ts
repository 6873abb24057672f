/** The service's clock, injectable so tests can move time (key expiry, last_used_at). */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
