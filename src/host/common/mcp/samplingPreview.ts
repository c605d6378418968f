/** Re-exported for host code and tests: the preview lives in `src/mcp`, shared with the CLI's sampling approval. */
export { samplingPreview, SAMPLING_PREVIEW_CHARS, type SamplingPreviewLabels } from '../../../mcp/samplingPreview';
