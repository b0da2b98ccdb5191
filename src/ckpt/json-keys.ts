// The keys of a JSON text's top-level object, duplicates included. JSON.parse keeps only the last of two
// equal keys, and no maintained library reports them cheaply, so this small scanner does (input already parsed).
export const topLevelKeys = (text: string): string[] => {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1 && expectKey) {
        keys.push(JSON.parse(text.slice(i, j + 1)) as string);
        expectKey = false;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      depth++;
      expectKey = depth === 1 && c === '{';
    } else if (c === '}' || c === ']') {
      depth--;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
  }
  return keys;
};
