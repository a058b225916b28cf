"""Images of analysed screens, headless: decoding, resizing and the caches behind the preview."""
