// Imported first by main.tsx: the session check and the landing screen's first reads leave
// before the router asks for the shell's and the screen's chunks, so they are not queued
// behind them on the browser's six connections (bench/dashboard).
import { startBootReads } from '@/lib/preload';

startBootReads(window.location.pathname);
