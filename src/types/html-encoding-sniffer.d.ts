// html-encoding-sniffer ships no declarations; this is its documented call (README, version 6).
declare module 'html-encoding-sniffer' {
  interface SniffOptions {
    xml?: boolean;
    transportLayerEncodingLabel?: string;
    defaultEncoding?: string;
  }
  /** The HTML standard's encoding sniffing: BOM, transport label, `<meta>` prescan of 1024 bytes, default. */
  function htmlEncodingSniffer(bytes: Uint8Array, options?: SniffOptions): string;
  export = htmlEncodingSniffer;
}
