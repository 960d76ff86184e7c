/** A trade's fills (issue 29, point 1): the round trip a manual trade's fills make. */
export { roundTripFromFills, type FillInput, type RoundTrip, type RoundTripResult } from './round-trip';
