// Writes the run's counts to the file named by JEST_COUNTS_FILE. Only numbers: jest's own --json
// output serialises failure details, and fails outright on an error with a circular structure.
// Also keeps each file's duration, so the summary can name the slowest files of a run, and the
// files that failed, so `npm test` can run them once more on their own (scripts/test.mjs).
const { writeFileSync } = require('node:fs');
const path = require('node:path');

class CountsReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.JEST_COUNTS_FILE;
    if (!file) return;
    const { numTotalTestSuites, numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    const durations = results.testResults
      .map((r) => ({ file: path.relative(process.cwd(), r.testFilePath), seconds: (r.perfStats.end - r.perfStats.start) / 1000 }))
      .sort((a, b) => b.seconds - a.seconds);
    const failed = results.testResults
      .filter((r) => r.numFailingTests > 0 || r.testExecError || r.failureMessage)
      .map((r) => path.relative(process.cwd(), r.testFilePath));
    writeFileSync(
      file,
      JSON.stringify({ numTotalTestSuites, numPassedTests, numFailedTests, numPendingTests: numPendingTests + numTodoTests, durations, failed }),
    );
  }
}

module.exports = CountsReporter;
