// Runs before the first paint (a classic script in index.html's head): applies the theme chosen
// in the header, kept by src/lib/theme.ts under this storage key, so a page forced to dark or
// light does not show the other one while the app loads. "system" needs nothing: CSS follows
// the operating system by itself.
try {
  var theme = localStorage.getItem("nasplan-theme");
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
} catch (error) {
  // Storage blocked: the app applies the theme when it starts.
}
