/** Converse's longest document name. */
const maxNameLength = 200;

/**
 * Names for the documents of one Converse request. A name allows letters, digits, single spaces,
 * hyphens, parentheses and square brackets, and no two documents of a request may share one
 * ("Messages can't contain duplicate document names"), whichever turn they came in: a repeat gets
 * ` (2)`, ` (3)`, … The file's extension is dropped (`format` carries it); an unnamed or unusable
 * filename becomes `document-<n>`, n counting the request's documents.
 */
export function bedrockDocumentNamer(): (filename: string | undefined) => string {
  const taken = new Set<string>();
  let count = 0;
  return (filename) => {
    count++;
    const base =
      documentName(filename ?? "")
        .slice(0, maxNameLength - 6)
        .trim() || `document-${count}`;
    let name = base;
    for (let repeat = 2; taken.has(name.toLowerCase()); repeat++) name = `${base} (${repeat})`;
    taken.add(name.toLowerCase());
    return name;
  };
}

function documentName(filename: string): string {
  return filename
    .replace(/\.[^.]*$/, "")
    .replace(/[^A-Za-z0-9\-()[\] ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
