// The little of autocannon 9's API that the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number; // seconds
    headers?: Record<string, string>;
    timeout?: number; // seconds
  }
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p99: number;
    max: number;
  }
  interface Result {
    duration: number; // seconds
    errors: number;
    timeouts: number;
    non2xx: number;
    latency: Histogram; // ms
    requests: Histogram; // per second, total: completed requests
    throughput: Histogram; // bytes per second
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
