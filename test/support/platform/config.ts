/**
 * The system's configuration as the entry points load it (the platform's settings and every
 * product's): specs beside lib/, the REST core and a product test it through here, as their code
 * does not import the product catalogue.
 */
export { isSetting, loadConfig, PRODUCT_NAMES, PUBLIC_URLS, SETTING_NAMES } from '../../../subgraphs/products';
