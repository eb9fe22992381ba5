// Types of src/projectRoot.js (plain JavaScript, see there).
/** The absolute path of the project's folder, without a trailing separator. */
export const projectRoot: string;
