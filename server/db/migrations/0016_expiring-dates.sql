CREATE INDEX "certifications_expiration_idx" ON "certifications" USING btree ("expiration_date","id","application_id");--> statement-breakpoint
CREATE INDEX "malpractice_insurance_expiration_idx" ON "malpractice_insurance" USING btree ("expiration_date","id","application_id");--> statement-breakpoint
CREATE INDEX "payors_contract_end_idx" ON "payors" USING btree ("contract_end_date","id","application_id");--> statement-breakpoint
CREATE INDEX "personal_information_driver_license_expiration_idx" ON "personal_information" USING btree ("driver_license_expiration","id","application_id");--> statement-breakpoint
CREATE INDEX "professional_licenses_expiration_idx" ON "professional_licenses" USING btree ("expiration_date","id","application_id");--> statement-breakpoint
CREATE INDEX "vaccinations_expiration_idx" ON "vaccinations" USING btree ("expiration_date","id","application_id");