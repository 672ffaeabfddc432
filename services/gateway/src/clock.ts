/** The gateway's clock and id generator are the platform's (LiveHub's pong time and connection ids, upload ids). */
export { CLOCK, CLOCK_AND_ID_BINDINGS, ID_GENERATOR, randomIds, systemClock, type Clock, type IdGenerator } from '@stemdeck/platform';
