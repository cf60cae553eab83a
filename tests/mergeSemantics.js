// The `merge` project: every emulator a test starts without its own `saveSemantics` keeps the stored value of a field a modify leaves out.
process.env.RUNPOD_EMULATOR_SAVE_SEMANTICS = "merge";
