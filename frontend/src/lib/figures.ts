// A modelled figure rounded to what the model can claim, as the runbook says it
// (backend/nasplan/domain/figures.py): 6002.1 MB/s reads "6.0 GB/s", 462.5 reads "463 MB/s".

export function rateWords(mbS: number): string {
  return mbS >= 1000 ? `${(mbS / 1000).toFixed(1)} GB/s` : `${mbS.toFixed(0)} MB/s`;
}

/** A modelled count rounded to two significant figures, as the runbook says it
 * (count_words): 141,400 reads "140,000". */
export function countRounded(count: number): number {
  const whole = Math.round(count);
  if (whole < 100) return whole;
  const step = 10 ** (String(whole).length - 2);
  return Math.round(whole / step) * step;
}

export function countWords(count: number): string {
  return countRounded(count).toLocaleString("en-US");
}
