/**
 * The kit's configuration in one place: chains, addresses, encodings and service defaults.
 *
 * @packageDocumentation
 */
export * from "./addresses.js";
export * from "./chains.js";
export * from "./encodings.js";
export * from "./service.js";
