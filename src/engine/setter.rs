//! House-way setter and foul explainer (placeholder; being written).
