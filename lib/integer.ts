// Whole numbers written by people (settings, flags): plain decimal digits only, where Number() would also take 0x10,
// 1e3, ' 5 ' and 5.0.

/** The integer a string of ASCII decimal digits spells (leading zeros allowed), or undefined for any other text or one past Number.MAX_SAFE_INTEGER. */
export function parseWholeNumber(text: string): number | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const value = Number(text); // above 2^53 rounds to 2^53 or more, so the bound below still holds
  return value <= Number.MAX_SAFE_INTEGER ? value : undefined;
}
