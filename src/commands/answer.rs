//! `pi-ask answer`: turning prose into a form (see `crate::extract`) and `--again`.
