// What both offline-bundle scripts need of npm: its command, and a network it cannot reach.
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Any request npm would make goes to a closed port; the lock's registry addresses stay as they are (they key the cache). */
export const UNREACHABLE_NETWORK = { npm_config_proxy: 'http://127.0.0.1:9/', npm_config_https_proxy: 'http://127.0.0.1:9/', npm_config_noproxy: '' };
