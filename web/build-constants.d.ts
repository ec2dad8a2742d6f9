/** The year the web app was built (vite.config.ts `define`): what a prerendered page shows as the year. */
declare const __BUILD_YEAR__: number;
