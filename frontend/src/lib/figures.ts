// A modelled figure rounded to what the model can claim, as the runbook says it
// (backend/nasplan/domain/figures.py): 6002.1 MB/s reads "6.0 GB/s", 462.5 reads "463 MB/s".

export function rateWords(mbS: number): string {
  return mbS >= 1000 ? `${(mbS / 1000).toFixed(1)} GB/s` : `${mbS.toFixed(0)} MB/s`;
}
