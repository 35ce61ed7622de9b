// Loader hooks that change nothing (bench/startup/hooks-only.cjs): Node's default resolve and load.
export {};
