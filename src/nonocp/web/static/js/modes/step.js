// Step: the step engine's deductions one at a time (needs the server's /api/step, on nonocp's stepper).

const $ = (id) => document.getElementById(id);
let app;

export default {
  name: "step",

  init(a) {
    app = a;
  },

  ready(info) {
    const can = !!(info && info.features && info.features.step);
    $("step-controls").hidden = !can;
    $("step-unavailable").hidden = can;
    $("step-unavailable").textContent = "Stepping needs nonocp's step engine, which this server does not have yet.";
  },

  enter() {
    if (app.puzzle) app.board.show(app.puzzle);
  },
};
