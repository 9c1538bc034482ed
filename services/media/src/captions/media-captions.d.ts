// The package's own declarations re-export their files without extensions, which NodeNext
// resolution cannot follow: the part of its API used here, as documented by the package.
declare module 'media-captions' {
  export interface VTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
  }
  export interface ParseError {
    code: number;
    line: number;
    message: string;
  }
  export interface ParsedCaptionsResult {
    cues: VTTCue[];
    errors: ParseError[];
  }
  export interface ParseCaptionsOptions {
    type?: 'vtt' | 'srt' | 'ssa' | 'ass';
    strict?: boolean;
    errors?: boolean;
  }
  interface VTTBlock {
    tagName: string;
    class?: string;
    children: VTTNode[];
  }
  export type VTTNode =
    | { type: 'text'; data: string }
    | (VTTBlock & { type: 'c' | 'i' | 'b' | 'u' | 'ruby' | 'rt' | 'timestamp' })
    | (VTTBlock & { type: 'v'; voice: string })
    | (VTTBlock & { type: 'lang'; lang: string });
  export function parseText(text: string, options?: ParseCaptionsOptions): Promise<ParsedCaptionsResult>;
  export function tokenizeVTTCue(cue: VTTCue): VTTNode[];
  export function parseVTTTimestamp(timestamp: string): number | null;
}
