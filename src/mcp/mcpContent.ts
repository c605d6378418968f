import type { BlobResourceContents, ContentBlock, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { frameUntrusted } from '../agent/web/untrustedText';

/** An image an MCP server returned, kept beside the text the model sees. */
export interface McpImage {
  mimeType: string;
  /** Base64. */
  data: string;
}

/** Content blocks flattened to text for the model, with images kept aside. */
export interface RenderedContent {
  text: string;
  images: McpImage[];
}

/** Decoded size of base64 data, for placeholders. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function renderResourceContent(content: TextResourceContents | BlobResourceContents, images: McpImage[]): string {
  const mime = content.mimeType ? ` (${content.mimeType})` : '';
  if ('text' in content && typeof content.text === 'string') return `[resource ${content.uri}${mime}]\n${content.text}`;
  const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
  if (content.mimeType?.startsWith('image/')) {
    images.push({ mimeType: content.mimeType, data: blob });
    return `[resource ${content.uri}: image ${content.mimeType}, ${base64Bytes(blob)} bytes: image ${images.length}]`;
  }
  return `[resource ${content.uri}${mime}: binary, ${base64Bytes(blob)} bytes, not shown]`;
}

/**
 * Flattens MCP content blocks: text as is, images and audio as short placeholders (images kept in
 * `images`), resource links and embedded resources as text. Blocks are separated by blank lines.
 */
export function renderContent(blocks: readonly ContentBlock[]): RenderedContent {
  const images: McpImage[] = [];
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
        images.push({ mimeType: block.mimeType, data: block.data });
        parts.push(`[image ${block.mimeType}, ${base64Bytes(block.data)} bytes: image ${images.length}]`);
        break;
      case 'audio':
        parts.push(`[audio ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`);
        break;
      case 'resource_link': {
        const details = [block.mimeType, block.description].filter(Boolean).join(' - ');
        parts.push(`[resource link] ${block.name} <${block.uri}>${details ? ` ${details}` : ''}`);
        break;
      }
      case 'resource':
        parts.push(renderResourceContent(block.resource, images));
        break;
      default:
        parts.push(`[unsupported content type ${(block as { type: string }).type}]`);
    }
  }
  return { text: parts.join('\n\n'), images };
}

/** Renders the contents of `resources/read`, text joined and binary parts as placeholders. */
export function renderResourceContents(contents: readonly (TextResourceContents | BlobResourceContents)[]): RenderedContent {
  const images: McpImage[] = [];
  const text = contents.map((content) => renderResourceContent(content, images)).join('\n\n');
  return { text, images };
}

/**
 * An MCP server's text as the model reads it: inside the one untrusted-content frame (see
 * agent/web/untrustedText.ts), with the server and what it answered (tool, resource URI) as the
 * frame's metadata. A server is outside code: its results are data, never instructions.
 */
export function frameMcpText(kind: 'MCP tool result' | 'MCP resource', server: string, what: string, text: string): string {
  if (kind === 'MCP resource') return frameUntrusted({ kind, source: `MCP server "${server}"`, url: what }, text);
  return frameUntrusted({ kind, source: `MCP server "${server}", tool "${what}"` }, text);
}
