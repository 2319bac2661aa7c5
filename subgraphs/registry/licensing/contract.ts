/**
 * The licence registry's public face for its REST surface (which imports no other module of the
 * subgraph: .dependency-cruiser.cjs `rest-bot-clients-see-public-faces`): the release channels and the
 * version syntax its routes validate.
 */
export { CHANNELS, isVersion } from './versions';
