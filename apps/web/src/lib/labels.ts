/** An enumeration key in words: `artificial_heart` → `Artificial heart`, `admin` → `Admin`. */
export function labelOf(key: string): string {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
