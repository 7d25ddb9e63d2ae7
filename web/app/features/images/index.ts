// The image viewer (docs/web.md, "Image viewer"): pages embed <ImageViewer /> with the
// data their loader read with loadViewerItem (viewer.server.ts).
export { ImageViewer, type ImageViewerProps } from "./ImageViewer";
export { firstPagePreview, manifestTitle, metadataPairs, pageLabels, type MetadataPair, type PagePreview } from "./manifest";
