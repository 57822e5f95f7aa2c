/** Text as HTML text or an attribute value: the five characters that could open markup, escaped. */
export const escapeHTML = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);
