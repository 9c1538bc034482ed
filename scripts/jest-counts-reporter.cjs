// Writes the run's counts to the file named by JEST_COUNTS_FILE. Only numbers: jest's own --json
// output serialises failure details, and fails outright on an error with a circular structure.
const { writeFileSync } = require('node:fs');

class CountsReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.JEST_COUNTS_FILE;
    if (!file) return;
    const { numTotalTestSuites, numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    writeFileSync(file, JSON.stringify({ numTotalTestSuites, numPassedTests, numFailedTests, numPendingTests: numPendingTests + numTodoTests }));
  }
}

module.exports = CountsReporter;
