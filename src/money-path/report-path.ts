/** Where a quoted purchase is read and paid (the quote's `report_url`, the offer's resource). */
export const reportPath = (id: string) => `/v1/rights/reports/${id}`;
