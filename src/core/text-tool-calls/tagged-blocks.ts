export interface TaggedBlock {
  /** For `<function=name>`-style openers: the name; else "". */
  attribute: string;
  body: string;
  /** Whether the block's close marker was found (an unclosed block runs to the next opener or the end). */
  closed: boolean;
}

/**
 * The blocks between `open` and `close` markers, found with indexOf in one linear pass (a regex
 * with a lazy body would go quadratic on a reply full of unclosed tags). An unclosed last block
 * runs to the end. For an opener ending in `=`, the text up to the next `>` is the attribute.
 */
export function taggedBlocks(text: string, open: string, close: string, limit: number): TaggedBlock[] {
  const blocks: TaggedBlock[] = [];
  let position = text.indexOf(open);
  while (position !== -1 && blocks.length < limit) {
    let bodyStart = position + open.length;
    let attribute = "";
    if (open.endsWith("=")) {
      const end = text.indexOf(">", bodyStart);
      if (end === -1) break;
      attribute = text.slice(bodyStart, end).trim();
      bodyStart = end + 1;
    }
    const closeAt = text.indexOf(close, bodyStart);
    const nextOpen = text.indexOf(open, bodyStart);
    const bodyEnd = closeAt === -1 ? (nextOpen === -1 ? text.length : nextOpen) : closeAt;
    blocks.push({ attribute, body: text.slice(bodyStart, bodyEnd), closed: closeAt !== -1 });
    position = closeAt === -1 ? nextOpen : text.indexOf(open, closeAt + close.length);
  }
  return blocks;
}
