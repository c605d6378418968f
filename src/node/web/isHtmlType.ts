/** True for HTML and XHTML content types. */
export function isHtmlType(contentType: string): boolean {
  return /^(text\/html|application\/xhtml\+xml)\b/i.test(contentType.trim());
}
