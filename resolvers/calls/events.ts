// Whether the user has authorized a video-call provider: `has_provider_token`, and the deprecated,
// Zoom-specific `has_zoom_token`.
declare module '../events/kinds.ts' {
  interface EventKinds {
    has_provider_token: { type: 'has_provider_token'; value: boolean };
    has_zoom_token: { type: 'has_zoom_token'; value: boolean };
  }
}

export {};
