/** The product's display name, used in the navigation bar and page titles. */
export const productName = 'InSilico Workspace';
