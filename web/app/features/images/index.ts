// The image viewer (docs/web.md, "Image viewer"): pages embed <ImageViewer /> (or the
// whole <ItemScans /> section) with the data their loader read with the helpers of
// images.server.ts (loadRecordScans, loadViewerData, loadRecordImages).
export { ImageViewer, type ImageViewerProps } from "./ImageViewer";
export type { ViewerHandle } from "./viewer-head";
export { ItemScans, type ItemScansProps } from "./ItemScans";
export { MembersOnly, type MembersOnlyProps } from "./MembersOnly";
export type { ScansData, ScanItemSummary } from "./scans";
export { firstPagePreview, manifestTitle, metadataPairs, pageLabels, type MetadataPair, type PagePreview } from "./manifest";
export { itemPageLabels, itemPreview, accessLabel, restricted, viewerPath, type ImageItem } from "./items";
