// The little of s3rver 3's API that the tests use (the package ships no types).
declare module 's3rver' {
  interface Options {
    port?: number;
    address?: string;
    directory: string;
    silent?: boolean;
    configureBuckets?: { name: string; configs: unknown[] }[];
  }
  export default class S3rver {
    constructor(options: Options);
    run(): Promise<import('node:net').AddressInfo>;
    close(): Promise<void>;
  }
}
